/**
 * Copy-link for field rows. The control is a plain `#row-id` link, so without
 * JavaScript it still puts the field's URL in the address bar; with it, the
 * same click (or Enter) also writes the full URL to the clipboard and says so,
 * visibly next to the control and to screen readers through a status region.
 * Loaded on tool pages only; keep it small (the budget is 2 KB).
 */
let status: HTMLElement | undefined;

function announce(link: HTMLElement, message: string): void {
  if (!status) {
    status = document.createElement('p');
    status.setAttribute('role', 'status');
    status.className = 'sr-only';
    document.body.append(status);
  }
  status.textContent = message;
  link.dataset.copied = message;
  setTimeout(() => {
    if (link.dataset.copied === message) delete link.dataset.copied;
  }, 2000);
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-copy-link]');
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  // The default action still runs: the address bar shows the field's URL and the row is highlighted.
  const failed = () => announce(link, 'Not copied: the link is in the address bar');
  // The clipboard API exists only on secure origins (https, localhost).
  if (!navigator.clipboard) return failed();
  navigator.clipboard.writeText(link.href).then(() => announce(link, 'Link copied'), failed);
});
