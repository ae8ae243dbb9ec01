// What the benchmarks in scripts/bench/ share (kept out of that folder: scripts/bench.mjs runs every .mjs file there
// as a benchmark): an access token from a service's token endpoint, fetched before anything is measured.

/**
 * An access token by the client-credentials grant at `authUrl` (a local service's, or a gateway's), for the client
 * given: the local service's demo admin client unless told another.
 */
export async function accessToken(authUrl, clientId = 'local-admin', secret = 'local-secret') {
  const r = await fetch(`${authUrl}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
  });
  return (await r.json()).access_token;
}
