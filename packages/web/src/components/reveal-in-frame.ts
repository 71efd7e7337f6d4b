/**
 * Scrolls `frame` (not the page) just enough for `element` to show, below `topInset` pixels at
 * its top (a sticky header).
 */
export function revealInFrame(frame: HTMLElement, element: HTMLElement, topInset = 0): void {
  const box = frame.getBoundingClientRect();
  const shown = element.getBoundingClientRect();
  const top = box.top + topInset;
  if (shown.top < top) frame.scrollTop -= top - shown.top;
  else if (shown.bottom > box.bottom) frame.scrollTop += shown.bottom - box.bottom;
}
