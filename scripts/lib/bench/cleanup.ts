/**
 * Undo steps registered as resources are made (temp folders, servers,
 * browsers, child processes) and run newest first on every path: at the end,
 * after an error, or on Ctrl-C. One failing step does not skip the others.
 */
export class Cleanup {
  private steps: { what: string; run: () => unknown }[] = [];

  add(what: string, run: () => unknown): void {
    this.steps.push({ what, run });
  }

  /** Runs every step once, newest first; returns the failures (already reported steps are gone). */
  async run(): Promise<string[]> {
    const failures: string[] = [];
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.what}: ${(error as Error).message}`);
      }
    }
    return failures;
  }
}
