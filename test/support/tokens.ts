// The client-credentials token request, asked for straight (no coinop between): one helper for every test that needs
// a token of the local service or a gateway.
import { DEMO } from '../../src/embedded/demo.js';

/**
 * An access token for a client from the token endpoint at `authUrl` (a local service's authUrl, or a gateway's
 * address), with `scope` when given; an answer without a token fails the test with what it said.
 */
export async function clientToken(
  authUrl: string,
  client: { clientId: string; secret: string },
  scope?: string,
): Promise<string> {
  const res = await tokenAnswer(authUrl, client, scope);
  const text = await res.text();
  const token = res.status === 200 ? (JSON.parse(text) as { access_token?: string }).access_token : undefined;
  if (!token) throw new Error(`token: ${res.status} ${text}`);
  return token;
}

/** A token of the local service's demo client `clientId` (the admin client unless said). */
export const demoToken = (authUrl: string, clientId: string = DEMO.adminClientId, scope?: string): Promise<string> =>
  clientToken(authUrl, { clientId, secret: DEMO.clientSecret }, scope);

/** An access token with `scope` of the demo admin client, from the token endpoint at `authUrl`. */
export const adminToken = (authUrl: string, scope: string): Promise<string> =>
  demoToken(authUrl, DEMO.adminClientId, scope);

/** The token endpoint's answer to a client-credentials request, whatever it is (a refusal's test reads it). */
export function tokenAnswer(
  authUrl: string,
  client: { clientId: string; secret: string },
  scope?: string,
): Promise<Response> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.secret,
  });
  if (scope !== undefined) form.set('scope', scope);
  return fetch(`${authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
}
