/**
 * Pure accounting and formatting for the benchmark: what kind of resource a
 * response is, byte sums per kind, site/baseline ratios, and the printed table.
 */

/** One response the browser received. */
export interface Fetched {
  url: string;
  /** Content-Type header, possibly with parameters. */
  contentType: string;
  /** Body bytes after decoding (what the browser parses). */
  bytes: number;
  /** Body bytes on the wire (gzip when the server compressed). */
  transferred: number;
}

export type ResourceKind = 'html' | 'css' | 'js' | 'other';

/**
 * The content type decides (that is what the browser obeys); the URL's
 * extension is the fallback for a missing or generic type. `/x/` is a page.
 */
export function kindOf(contentType: string, url: string): ResourceKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html') return 'html';
  if (type === 'text/css') return 'css';
  if (/^(text|application)\/(x-)?(java|ecma)script$/.test(type)) return 'js';
  if (type && type !== 'application/octet-stream') return 'other';
  const path = new URL(url, 'http://x').pathname;
  if (path.endsWith('/') || /\.html?$/.test(path)) return 'html';
  if (path.endsWith('.css')) return 'css';
  if (/\.m?js$/.test(path)) return 'js';
  return 'other';
}

export interface ByteSums {
  html: number;
  css: number;
  js: number;
  other: number;
  /** All decoded bytes. */
  total: number;
  /** All bytes on the wire. */
  transferred: number;
  requests: number;
}

export function sumBytes(fetched: readonly Fetched[]): ByteSums {
  const sums: ByteSums = { html: 0, css: 0, js: 0, other: 0, total: 0, transferred: 0, requests: 0 };
  for (const f of fetched) {
    sums[kindOf(f.contentType, f.url)] += f.bytes;
    sums.total += f.bytes;
    sums.transferred += f.transferred;
    sums.requests += 1;
  }
  return sums;
}

/**
 * The page's own resources: Chromium fetches the favicon on its own schedule,
 * sometimes after the network went idle, so counting it would make two runs
 * of the same page differ.
 */
export function withoutFavicon(fetched: readonly Fetched[]): Fetched[] {
  return fetched.filter((f) => !/\/favicon\.[a-z]+$/i.test(new URL(f.url, 'http://x').pathname));
}

/** Responses whose path is under `prefix` (e.g. `/pagefind/`): what the search itself costs. */
export function under(fetched: readonly Fetched[], prefix: string): Fetched[] {
  return fetched.filter((f) => new URL(f.url, 'http://x').pathname.startsWith(prefix));
}

/** site / baseline; null when either is missing or the baseline is 0 (no meaningful ratio). */
export function ratio(site: number | null, baseline: number | null): number | null {
  if (site === null || baseline === null || baseline === 0) return null;
  return site / baseline;
}

export function formatRatio(r: number | null): string {
  return r === null ? '—' : `${r.toFixed(2)}×`;
}

export type Unit = 'bytes' | 'ms' | 'score' | 'count';

/**
 * Bytes in KiB with one decimal (exact numbers are in the JSON), times in ms below a second and in seconds above,
 * scores 0–100.
 */
export function formatValue(value: number | null, unit: Unit): string {
  if (value === null) return 'n/a';
  switch (unit) {
    case 'bytes':
      return `${(value / 1024).toFixed(1)} KiB`;
    case 'ms':
      return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
    case 'score':
    case 'count':
      return String(Math.round(value));
  }
}

export interface Row {
  metric: string;
  unit: Unit;
  site: number | null;
  baseline: number | null;
  /**
   * A ratio that is not this row's site / baseline (the median of several
   * per-run ratios); such a row may have no site or baseline figure of its own.
   */
  ratio?: number | null;
}

export interface JsonRow extends Row {
  ratio: number | null;
}

/** The row's ratio: its own when it has one, else site / baseline. */
export function rowRatio(r: Row): number | null {
  return r.ratio !== undefined ? r.ratio : ratio(r.site, r.baseline);
}

export function jsonRows(rows: readonly Row[]): JsonRow[] {
  return rows.map((r) => ({ ...r, ratio: rowRatio(r) }));
}

/**
 * A plain-text table: metric left-aligned, numbers right-aligned, two spaces
 * between columns, the two sides headed by `columns`. A row with a ratio of its own leaves a missing figure blank
 * (there is none to show, rather than one that could not be measured).
 */
export function renderTable(
  rows: readonly Row[],
  columns: { site: string; baseline: string } = { site: 'this site', baseline: 'baseline' },
): string {
  const cell = (r: Row, value: number | null) =>
    value === null && r.ratio !== undefined ? '' : formatValue(value, r.unit);
  const lines = [
    ['metric', columns.site, columns.baseline, 'ratio'],
    ...rows.map((r) => [r.metric, cell(r, r.site), cell(r, r.baseline), formatRatio(rowRatio(r))]),
  ];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => [...l[i]!].length)));
  const pad = (text: string, width: number, left: boolean) => {
    const fill = ' '.repeat(width - [...text].length);
    return left ? text + fill : fill + text;
  };
  return lines
    .map((l) =>
      l
        .map((cell, i) => pad(cell, widths[i]!, i === 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Astro's redirect pages (meta refresh) are not content pages; they are counted apart. */
export function isRedirectPage(html: string): boolean {
  return /<meta\s+http-equiv=["']?refresh["']?/i.test(html.slice(0, 2048));
}
