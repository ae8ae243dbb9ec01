// coinop approve: the raw argument and flags, checked once into the options the run works with.
import type { BatchFormat } from '../../batch/reader.js';
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import { APPROVE_FLAG_TABLE } from './flags.js';

export interface ApproveOptions {
  /** The file to approve (none with --show-key). */
  file?: string;
  showKey: boolean;
  format?: BatchFormat;
  profileId?: string;
  skipInvalid: boolean;
  /** A repeat run (withdraw batch --allow-repeat): rows another batch paid, paid again. */
  allowRepeat: boolean;
  yes: boolean;
}

const FORMATS: readonly string[] = ['csv', 'jsonl', 'json'] satisfies BatchFormat[];

export function parseApproveOptions(file: string | undefined, raw: RawFlags): ApproveOptions {
  const f = APPROVE_FLAG_TABLE.read(raw);
  const { showKey, format } = f;
  if (showKey && file !== undefined) throw usageError('--show-key: give no FILE (it prints the key and signs nothing)');
  if (!showKey && file === undefined)
    throw usageError(
      'missing FILE: the batch file or saved withdrawal to approve',
      'or --show-key for your public key',
    );
  if (file === '-' || file?.trim() === '') throw usageError('FILE: give a file (the approval is written next to it)');
  // commander has checked the choices; this keeps the type honest for any other caller.
  if (format !== undefined && !FORMATS.includes(format))
    throw usageError(`--format: must be one of ${FORMATS.join(', ')}`);
  return {
    file,
    showKey,
    format,
    profileId: f.profileId,
    skipInvalid: f.skipInvalid,
    allowRepeat: f.allowRepeat,
    yes: f.yes,
  };
}
