// What keeps web pages open in a browser on this machine from driving the local service.
//
// - DNS rebinding: a page on evil.example whose name is made to resolve to 127.0.0.1 reaches the service as "its own
//   origin", but its requests still carry `Host: evil.example:PORT`. The Host (or the authority of an absolute-form
//   request target) must name the service by a loopback name: 127.0.0.1, localhost, [::1] or the address it listens
//   on. The port is not compared: a browser's Host always names the server it connected to, so only the name can be
//   forged; a different port means a tunnel or proxy forwarded the request (ssh -L), which keeps working.
//   This applies to the control API always, and to every request when the service listens on a loopback address.
// - Cross-site requests to the control API (which has no token): a request that carries an Origin other than the
//   service's own (http://127.0.0.1:PORT, http://localhost:PORT, http://[::1]:PORT), or `Sec-Fetch-Site` other than
//   same-origin or none, is refused; and control writes take only `application/json`, even bodiless ones, which a
//   page cannot send cross-site without a CORS preflight the service never grants (a plain form post is refused).
import type { IncomingHttpHeaders } from 'node:http';
import { problems } from '../contract/index.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** A listen address as it appears in a Host header: IPv6 in brackets, lower case. */
function hostName(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

/** The name part of a Host header value or URL authority (`[::1]:80` -> `[::1]`), or undefined when malformed. */
function nameOf(authority: string): string | undefined {
  const m = /^(\[[0-9a-f:.]*\]|[^:[\]@/\s]*)(?::\d{0,5})?$/i.exec(authority.trim());
  return m ? m[1].toLowerCase() : undefined;
}

export class BrowserGuard {
  private readonly names: Set<string>;
  private readonly origins = new Set<string>();
  /** When the service listens on a loopback address, every request's Host is checked, not only the control API's. */
  readonly checksEveryHost: boolean;

  constructor(listenHost: string, port: number) {
    const own = WILDCARDS.has(listenHost) ? [] : [hostName(listenHost)];
    this.names = new Set([...LOOPBACK_NAMES, ...own]);
    for (const n of this.names) {
      this.origins.add(`http://${n}:${port}`);
      if (port === 80) this.origins.add(`http://${n}`);
    }
    this.checksEveryHost = isLoopbackAddress(listenHost);
  }

  /**
   * An HTTP/1.1 request without a Host is a 400 (RFC 9112 3.2; HTTP/1.0 may leave it out). With `names`, a Host (or
   * absolute-form authority) that is not a loopback name of this service is a 403.
   */
  checkHost(authority: string | undefined, httpVersion: string, names: boolean): void {
    if (authority === undefined) {
      if (httpVersion === '1.0') return;
      throw problems.badRequest('Host: the header is required');
    }
    if (!names) return;
    const name = nameOf(authority);
    if (name === undefined || !this.names.has(name)) {
      throw problems.forbidden(
        `Host: ${JSON.stringify(authority.slice(0, 100))} is not a loopback name of this service (${[...this.names].join(', ')}); refused against DNS rebinding`,
      );
    }
  }

  /** The control API's rules against cross-site requests: Origin, Sec-Fetch-Site, and JSON for every write. */
  checkControl(method: string, headers: IncomingHttpHeaders): void {
    const origin = headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) {
      throw problems.forbidden(
        `Origin: ${JSON.stringify(origin.slice(0, 100))} is not this service's own origin; the control API refuses requests from web pages`,
      );
    }
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw problems.forbidden(
        `Sec-Fetch-Site: ${JSON.stringify(site.slice(0, 100))} is refused; the control API answers same-origin requests only`,
      );
    }
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
    const type = headers['content-type'];
    const media = (type ?? '').split(';')[0].trim().toLowerCase();
    if (media !== 'application/json') {
      throw problems.unsupportedMediaType(
        `content type ${type || '(none)'} is not supported; control API writes must send application/json, even without a body`,
      );
    }
  }
}
