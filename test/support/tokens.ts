// A token of the local service's demo admin client, asked for straight (no coinop between).
import { DEMO } from '../../src/embedded/demo.js';

/** An access token with `scope` from the token endpoint at `authUrl`. */
export async function adminToken(authUrl: string, scope: string): Promise<string> {
  const res = await fetch(`${authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: DEMO.adminClientId,
      client_secret: DEMO.clientSecret,
      scope,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
