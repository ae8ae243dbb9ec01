// coinop login: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';
import { ENVIRONMENTS } from '../../config/environments.js';

export const LOGIN_FLAG_TABLE = defineFlags({
  env: { kind: 'choice', flag: '--env <environment>', help: 'environment', choices: ENVIRONMENTS },
  clientId: { kind: 'text', flag: '--client-id <id>', help: 'OAuth client id' },
  clientSecretStdin: {
    kind: 'switch',
    flag: '--client-secret-stdin',
    help: 'read the client secret from stdin (or set COINOP_CLIENT_SECRET)',
  },
  scopes: { kind: 'text', flag: '--scopes <list>', help: 'scopes to request, comma separated (default: all)' },
  name: {
    kind: 'text',
    flag: '--name <context>',
    help: 'context name to save under (default: --context, else the environment)',
  },
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile id that withdrawals and deposit addresses use by default",
  },
  baseUrl: {
    kind: 'text',
    flag: '--base-url <url>',
    help: 'API address (custom environment; sandbox and production: instead of the hosted one)',
  },
  authUrl: {
    kind: 'text',
    flag: '--auth-url <url>',
    help: 'token endpoint host (custom; sandbox and production: instead of the hosted one)',
  },
  wsUrl: {
    kind: 'text',
    flag: '--ws-url <url>',
    help: 'stream address (custom; sandbox and production: instead of the hosted one)',
  },
  activate: {
    kind: 'switch',
    flag: '--activate',
    help: 'make a production context the active one without asking (other environments always are)',
  },
});
