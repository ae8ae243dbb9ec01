// coinop context delete: its flag, declared once: index.ts declares it and reads its typed value.
import { defineFlags } from '../../cli/flags.js';

export const CONTEXT_DELETE_FLAG_TABLE = defineFlags({
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask' },
});
