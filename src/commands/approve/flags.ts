// coinop approve: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';

export const APPROVE_FLAG_TABLE = defineFlags({
  showKey: {
    kind: 'switch',
    flag: '--show-key',
    help: "print this machine's approver public key (made on first use), for the team's policy",
  },
  // Exactly as spelled (commander's check and message), as the batch reader takes it.
  format: {
    kind: 'choice',
    exact: true,
    flag: '--format <format>',
    help: 'batch file format (default: from the file name or its first character)',
    choices: ['csv', 'jsonl', 'json'],
  },
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "service profile for rows without a profile_id, as the batch gets it: its id, id prefix or nickname (default: the context's)",
  },
  skipInvalid: {
    kind: 'switch',
    flag: '--skip-invalid',
    help: 'approve the valid rows of a file with invalid ones (as withdraw batch --skip-invalid sends them)',
  },
  allowRepeat: {
    kind: 'switch',
    flag: '--allow-repeat',
    help: 'approve a repeat run: withdraw batch --allow-repeat, paying again rows another batch paid (approvals of the first payment never count for it)',
  },
  yes: { kind: 'switch', flag: '-y, --yes', help: 'sign without asking (needed without a terminal in production)' },
} as const);
