// coinop close and close verify: their flags, declared once: index.ts declares them, options.ts reads their values.
import { defineFlags } from '../../cli/flags.js';

export const CLOSE_FLAG_TABLE = defineFlags({
  month: { kind: 'text', flag: '--month <yyyy-mm>', help: 'the calendar month to close, in UTC, such as 2026-11' },
  out: { kind: 'text', flag: '--out <dir>', help: 'the folder the bundle is written to (new, or empty)' },
  profileId: {
    kind: 'list',
    split: true,
    flag: '--profile-id <id>',
    help: "the service's profiles to give statements of, by id, id prefix or nickname (repeatable or comma separated; default: every profile)",
  },
});

export const CLOSE_VERIFY_FLAG_TABLE = defineFlags({
  publicKey: {
    kind: 'text',
    flag: '--public-key <file>',
    help: "a file holding the operator's public key (ed25519:BASE64, as coinop approve --show-key prints it)",
  },
});
