/**
 * The splitter between the editor and the results: dragged with a pointer,
 * or moved with the keyboard as the WAI-ARIA window splitter pattern says
 * (Left and Right arrows by a step, Home and End to the ends, Enter back to
 * half). It sets the editor's share of the width as a CSS variable, which
 * only the wide layout reads: a phone shows one pane at a time.
 */

/** The editor's share of the width, in percent, stays between these: neither pane disappears. */
export const MIN_SHARE = 20;
export const MAX_SHARE = 80;
export const DEFAULT_SHARE = 50;
const STEP = 5;

export function clampedShare(share: number): number {
  return Number.isFinite(share) ? Math.min(MAX_SHARE, Math.max(MIN_SHARE, share)) : DEFAULT_SHARE;
}

/** The share after a key pressed on the splitter, or null for a key it does not take. */
export function shareAfterKey(share: number, key: string): number | null {
  switch (key) {
    case 'ArrowLeft':
      return clampedShare(share - STEP);
    case 'ArrowRight':
      return clampedShare(share + STEP);
    case 'Home':
      return MIN_SHARE;
    case 'End':
      return MAX_SHARE;
    case 'Enter':
      return DEFAULT_SHARE;
    default:
      return null;
  }
}

/**
 * Makes `handle` resize the first pane of `container` (the variable
 * `--editor-share`), starting at `initial`; `settled` is told each share the
 * user leaves it at (to keep it).
 */
export function splitter(handle: HTMLElement, container: HTMLElement, initial: number, settled: (share: number) => void): void {
  let share = clampedShare(initial);
  const set = (next: number): void => {
    share = clampedShare(next);
    container.style.setProperty('--editor-share', `${share}%`);
    handle.setAttribute('aria-valuenow', String(Math.round(share)));
  };
  set(share);
  handle.addEventListener('keydown', (e) => {
    const next = shareAfterKey(share, e.key);
    if (next === null) return;
    e.preventDefault();
    set(next);
    settled(share);
  });
  /** the pointer dragging the splitter, which has it captured (it moves on over the editor) */
  let dragging: number | null = null;
  handle.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    dragging = e.pointerId;
    handle.setPointerCapture(e.pointerId);
    handle.dataset['dragging'] = 'yes';
  });
  handle.addEventListener('pointermove', (e) => {
    if (e.pointerId !== dragging) return;
    const box = container.getBoundingClientRect();
    set(((e.clientX - box.left) / box.width) * 100);
  });
  const release = (e: PointerEvent): void => {
    if (e.pointerId !== dragging) return;
    dragging = null;
    if (handle.hasPointerCapture(e.pointerId)) handle.releasePointerCapture(e.pointerId);
    delete handle.dataset['dragging'];
    settled(share);
  };
  handle.addEventListener('pointerup', release);
  handle.addEventListener('pointercancel', release);
  handle.addEventListener('dblclick', () => {
    set(DEFAULT_SHARE);
    settled(share);
  });
}
