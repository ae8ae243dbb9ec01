// coinop policy init: its flag, declared once: index.ts declares it, options.ts reads its typed value.
import { defineFlags } from '../../cli/flags.js';

export const POLICY_INIT_FLAG_TABLE = defineFlags({
  force: { kind: 'switch', flag: '--force', help: 'replace the policy file the context has' },
});
