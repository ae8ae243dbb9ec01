// coinop close and close verify: their flags checked once into the options the runs work with.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import type { PublicKeyInfo } from '../../policy/keys.js';
import { readPublicKeyFile } from '../../close/bundle.js';
import { monthPeriod, type Period } from '../../statement/period.js';
import { CLOSE_FLAG_TABLE, CLOSE_VERIFY_FLAG_TABLE } from './flags.js';

export interface CloseOptions {
  month: string;
  period: Period;
  out: string;
  /** Every profile of the service when undefined. */
  profileIds?: string[];
}

export interface CloseVerifyOptions {
  dir: string;
  /** The key to check the signature against; undefined: the key the bundle names (integrity only). */
  publicKey?: PublicKeyInfo;
}

export function parseCloseOptions(raw: RawFlags): CloseOptions {
  const f = CLOSE_FLAG_TABLE.read(raw);
  if (f.month === undefined) throw usageError('--month: required, such as --month 2026-11');
  const period = monthPeriod(f.month);
  if (!period) throw usageError(`--month: "${f.month}" is not a month; give YYYY-MM, such as 2026-11`);
  if (f.out === undefined || !f.out.trim()) throw usageError('--out: required, the folder to write the bundle to');
  if (existsSync(f.out) && (!statSync(f.out).isDirectory() || readdirSync(f.out).length))
    throw usageError(`--out: ${f.out} must be a new or empty folder`);
  const ids = f.profileId?.map((id) => id.trim()).filter(Boolean);
  return { month: f.month.trim(), period, out: f.out, profileIds: ids?.length ? [...new Set(ids)] : undefined };
}

export function parseCloseVerifyOptions(dir: string, raw: RawFlags): CloseVerifyOptions {
  const { publicKey: file } = CLOSE_VERIFY_FLAG_TABLE.read(raw);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw usageError(`DIR: ${dir} is not a folder`);
  if (file === undefined) return { dir };
  if (!existsSync(file)) throw usageError(`--public-key: ${file} does not exist`);
  const key = readPublicKeyFile(file);
  if ('rule' in key) throw usageError(`--public-key: ${file} ${key.rule}`);
  return { dir, publicKey: key };
}
