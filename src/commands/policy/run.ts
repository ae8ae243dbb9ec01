// coinop policy show|check|init: the context's policy file, read and shown rule by rule, validated with every problem
// and its line, or written as a commented starter. None of them sends anything.
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { writeFileAtomic } from '../../config/lock.js';
import { privateDir } from '../../config/private-files.js';
import { formatPolicyIssue, loadPolicyFile, PolicyFileError } from '../../policy/load.js';
import { policyDir, policyLocation } from '../../policy/location.js';
import { describePolicy, type LoadedPolicy, policyJson } from '../../policy/policy.js';
import { keyValueLines } from '../../render/key-value.js';
import { palette } from '../../render/style.js';
import type { PolicyCheckOptions, PolicyInitOptions } from './options.js';
import { starterPolicy } from './starter.js';

/** What policy show, check and init take: the output, the context (its name), where its policy file is. */
export type PolicyDeps = Pick<Ports, 'display' | 'service' | 'policy'>;

/** Loads a policy file; one that does not load is a usage error (exit 2), every problem listed first. */
function loadOrRefuse(ctx: PolicyDeps, file: string): LoadedPolicy {
  try {
    return loadPolicyFile(file);
  } catch (e) {
    if (!(e instanceof PolicyFileError)) throw e;
    if (e.issues.length === 1) throw usageError(e.message, 'coinop policy init writes a commented starter file');
    const machine = ctx.display.format() === 'json' || ctx.display.format() === 'ndjson';
    for (const i of e.issues)
      ctx.display.io.err(
        `${machine ? JSON.stringify({ file, line: i.line, field: i.field, rule: i.rule }) : formatPolicyIssue(file, i)}\n`,
      );
    throw usageError(`${file}: ${e.issues.length} problems (listed above)`);
  }
}

/** The context's policy file, where it is and whether it is there; two of them are a usage error. */
function located(ctx: PolicyDeps): { name: string; path: string; exists: boolean } {
  const name = ctx.service.context().name;
  const loc = policyLocation(ctx.policy.configDir(), name);
  if (loc.problem)
    throw new CoinopError('policy', `${loc.problem}: every command that moves money is refused until it reads`, {
      hint: 'make it a readable policy file, or remove it to have no rules',
    });
  if (loc.others.length)
    throw usageError(
      `context ${name} has more than one policy file (${[loc.path, ...loc.others].join(', ')}); keep one`,
    );
  return { name, ...loc };
}

/** A loaded policy: for a person its rules in words, for a machine its JSON. */
function render(ctx: PolicyDeps, head: Record<string, unknown>, loaded: LoadedPolicy): void {
  const out = ctx.display.output();
  if (!out.forPeople) return out.one({ ...head, sha256: loaded.sha256, policy: policyJson(loaded.policy) });
  const rows: [string, string][] = [
    // For people the coinop context is called so (the JSON keeps its key).
    ...Object.entries(head).map(([k, v]) => [k === 'profile' ? 'context' : k, String(v)] as [string, string]),
    ['sha256', loaded.sha256],
    ...describePolicy(loaded.policy),
  ];
  for (const line of keyValueLines(rows, palette(ctx.display.io.colour))) ctx.display.io.out(`${line}\n`);
}

export async function show(ctx: PolicyDeps): Promise<void> {
  const { name, path, exists } = located(ctx);
  if (exists) return render(ctx, { profile: name, file: path, found: true }, loadOrRefuse(ctx, path));
  const out = ctx.display.output();
  if (!out.forPeople) return out.one({ profile: name, file: path, found: false, sha256: null, policy: null });
  const rows: [string, string][] = [
    ['context', name],
    ['file', `${path} (not there)`],
    ['rules', 'none: without a policy file coinop enforces no rules for this context (coinop policy init writes one)'],
  ];
  for (const line of keyValueLines(rows, palette(ctx.display.io.colour))) ctx.display.io.out(`${line}\n`);
}

export async function check(ctx: PolicyDeps, options: PolicyCheckOptions): Promise<void> {
  let file = options.file;
  if (file === undefined) {
    const loc = located(ctx);
    if (!loc.exists) {
      ctx.display.io.err(`no policy file for context ${loc.name} (${loc.path}): no rules to check\n`);
      return;
    }
    file = loc.path;
  }
  const loaded = loadOrRefuse(ctx, file);
  const set = describePolicy(loaded.policy).filter(
    ([, v]) => !/^(any|any address|no limit|any time|none needed)$/.test(v),
  );
  ctx.display.io.err(
    `${palette(ctx.display.io.colourErr).green('✓')} ${file}: a valid policy (${set.length ? `rules: ${set.map(([r]) => r).join(', ')}` : 'no rules set'})\n`,
  );
  render(ctx, { file, valid: true }, loaded);
}

export async function init(ctx: PolicyDeps, options: PolicyInitOptions): Promise<void> {
  const { name, path, exists } = located(ctx);
  if (exists && !options.force)
    throw usageError(
      `${path}: the context has a policy file already (coinop policy show)`,
      'add --force to replace it',
    );
  try {
    privateDir(policyDir(ctx.policy.configDir()));
    writeFileAtomic(path, starterPolicy(name));
  } catch (e) {
    throw new CoinopError('file', `${path}: cannot be written (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  // What was written must load: a starter that did not would block every command that moves money.
  loadOrRefuse(ctx, path);
  ctx.display.io.err(
    `${palette(ctx.display.io.colourErr).green('✓')} wrote ${path}: a starter policy with no rules yet; uncomment the rules your team wants, then run coinop policy check\n`,
  );
}
