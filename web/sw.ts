/**
 * The playground's service worker: adds the cross-origin isolation headers
 * (COOP same-origin, COEP require-corp) to the responses of its own folder,
 * for hosts that cannot be told to send them (isolation.ts registers it only
 * when the page is not isolated). It caches nothing: every request goes to
 * the network as the page made it.
 */

/** The parts of a service worker's global scope used here (the page's DOM types describe a window). */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ServiceWorkerScope {
  readonly location: { readonly origin: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void;
}

const scope = self as unknown as ServiceWorkerScope;

scope.addEventListener('install', () => void scope.skipWaiting());
// control the page that registered it at once, so that it can reload isolated
scope.addEventListener('activate', (e) => e.waitUntil(scope.clients.claim()));

function isolated(response: Response): Response {
  // an opaque or error response has no headers to change
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

scope.addEventListener('fetch', (e) => {
  const r = e.request;
  // a cross-origin request is left to the browser; Chromium refuses `only-if-cached` outside same-origin mode
  if (new URL(r.url).origin !== scope.location.origin || (r.cache === 'only-if-cached' && r.mode !== 'same-origin')) return;
  e.respondWith(fetch(r).then(isolated));
});
