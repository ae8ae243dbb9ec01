// Test support: a saved context written straight into a configuration directory, as `coinop login` leaves it.
// A sandbox or production context can only log in against the hosted token endpoint, so tests that need one
// pointed at a local service save it here (with the https addresses of a TLS front, test/support/tls.ts).
import { configDir } from '../../src/config/paths.js';
import { ConfigStore, type StoredContext } from '../../src/config/store.js';
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { DEMO } from '../../src/embedded/demo.js';

/** Saves `name` in env's COINOP_CONFIG_DIR with the demo admin client and secret unless given. */
export async function saveContext(
  env: Record<string, string | undefined>,
  name: string,
  context: Pick<StoredContext, 'environment' | 'baseUrl'> & Partial<StoredContext>,
  secret: string = DEMO.clientSecret,
): Promise<void> {
  const stored: StoredContext = {
    authUrl: context.baseUrl,
    wsUrl: `${context.baseUrl.replace(/^http/, 'ws')}/ws`,
    clientId: DEMO.adminClientId,
    scopes: [...ALL_SCOPES],
    profileId: DEMO.profileId,
    ...context,
  };
  await new ConfigStore(configDir(env)).saveContext(name, stored, secret, false);
}
