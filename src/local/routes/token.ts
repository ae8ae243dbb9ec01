// POST /oauth2/token: OAuth 2.0 client credentials (form-encoded; JSON and HTTP Basic credentials accepted too).
import type { Router } from '../router.js';
import { OAuthError } from '../auth.js';
import type { Service } from '../route-helpers.js';

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 0) return undefined;
  // RFC 6749 2.3.1 form-encodes both parts; a part that does not decode is taken as written (and matches no client).
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: decode(text.slice(0, i)), secret: decode(text.slice(i + 1)) };
}

export function registerToken(app: Router, svc: Service): void {
  app.post('/oauth2/token', async (req, reply) => {
    const body =
      req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    try {
      const answer = svc.auth.issue(body, basicCredentials(req.headers.authorization));
      req.principal = String(body.client_id ?? '');
      reply.header('cache-control', 'no-store');
      return answer;
    } catch (e) {
      if (e instanceof OAuthError) {
        req.rejection = e.message;
        reply.code(e.status).header('cache-control', 'no-store');
        if (e.status === 401) reply.header('www-authenticate', 'Basic realm="coinop-local"');
        return e.body();
      }
      throw e;
    }
  });
}
