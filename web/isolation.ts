/**
 * Cross-origin isolation, which Z3's threads need (SharedArrayBuffer): from
 * the server's COOP/COEP headers, or else from the page's service worker
 * (sw.ts), which adds them to every response of this folder; the page then
 * reloads once, isolated. This is what lets the built folder work from any
 * static host (GitHub Pages sends no such headers).
 */

/** How the page is isolated, or that it is reloading to be, or that it cannot be. */
export type Isolation = 'headers' | 'service-worker' | 'reloading' | 'none';

/** Set before the one reload, so that a worker that does not take cannot make the page reload forever. */
const RELOADED = 'faial-ts.isolation-reload';

/** The service worker controlling this page, once there is one (clients.claim() in sw.ts), or null after `ms`. */
function controlled(ms: number): Promise<ServiceWorker | null> {
  const now = navigator.serviceWorker.controller;
  if (now !== null) return Promise.resolve(now);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      clearTimeout(timer);
      resolve(navigator.serviceWorker.controller);
    });
  });
}

export async function isolation(): Promise<Isolation> {
  const reloaded = sessionStorage.getItem(RELOADED) !== null;
  sessionStorage.removeItem(RELOADED);
  if (crossOriginIsolated) return navigator.serviceWorker?.controller ? 'service-worker' : 'headers';
  if (!('serviceWorker' in navigator) || !isSecureContext || reloaded) return 'none';
  try {
    await navigator.serviceWorker.register('sw.js');
  } catch {
    return 'none';
  }
  if ((await controlled(10_000)) === null) return 'none';
  sessionStorage.setItem(RELOADED, 'yes');
  location.reload();
  return 'reloading';
}
