/**
 * The only script of tool pages (budget: 2 KB, checked by a test).
 *
 * Copy-link for field rows. The control is a plain `#row-id` link, so without
 * JavaScript it still puts the field's URL in the address bar; with it, the
 * same click (or Enter) also writes the full URL to the clipboard and says so,
 * visibly next to the control and to screen readers through a status region.
 *
 * Long definitions are not in the page (see INLINE_DEFINITION_LIMIT): their
 * <details> names their file, fetched when first expanded. "Compare two releases"
 * loads its module when first opened, or at once when the URL names a comparison.
 */
let statusRegion: HTMLElement | undefined;

function announce(link: HTMLElement, message: string): void {
  if (!statusRegion) {
    statusRegion = document.createElement('p');
    statusRegion.setAttribute('role', 'status');
    statusRegion.className = 'sr-only';
    document.body.append(statusRegion);
  }
  statusRegion.textContent = message;
  link.dataset.copied = message;
  setTimeout(() => {
    if (link.dataset.copied === message) delete link.dataset.copied;
  }, 2000);
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a.field-link');
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  // The default action still runs: the address bar shows the field's URL and the row is highlighted.
  const failed = () => announce(link, 'Not copied: the link is in the address bar');
  // The clipboard API exists only on secure origins (https, localhost).
  if (!navigator.clipboard) return failed();
  navigator.clipboard.writeText(link.href).then(() => announce(link, 'Link copied'), failed);
});

document.addEventListener(
  'toggle',
  (event) => {
    const details = event.target as HTMLDetailsElement;
    // The release comparison loads its module (a URL Vite leaves alone) when first opened.
    const compare = details.dataset?.compareModule;
    if (details.open && compare)
      void import(/* @vite-ignore */ compare).then((m: { start(d: HTMLDetailsElement): void }) => m.start(details));
    const src = details.dataset?.definitionSrc;
    const pre = details.querySelector<HTMLElement>('pre.definition-text');
    if (!details.open || !src || !pre || pre.textContent) return;
    fetch(src)
      .then((r) => (r.ok ? r.text() : Promise.reject()))
      .then(
        (text) => {
          pre.textContent = text;
          pre.hidden = false;
        },
        () => {},
      );
  },
  true, // toggle does not bubble
);

// A URL that names a comparison (`?compare=…`) opens it.
if (new URLSearchParams(location.search).has('compare'))
  document.querySelector<HTMLDetailsElement>('details[data-compare-module]')?.setAttribute('open', '');
