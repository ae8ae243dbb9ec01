// coinop doctor: its flag, declared once: index.ts declares it, options.ts reads its typed value.
import { defineFlags } from '../../cli/flags.js';

export const DOCTOR_FLAG_TABLE = defineFlags({
  timeout: {
    kind: 'default',
    flag: '--timeout <seconds>',
    help: 'how long each endpoint may take to answer',
    default: '5',
  },
});
