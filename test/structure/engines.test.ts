// A fresh clone's `npm install` prints no engine warning (EBADENGINE) on a Node version coinop supports (issue 29):
// every package package-lock.json holds admits the lowest version of each Node line package.json's engines.node names
// (20.19 and 22.12: what vite and @noble/* need). A dependency that wants more is pinned by an override in
// package.json (as @apidevtools/json-schema-ref-parser is, to 15.x: its 16.x wants Node 22.19).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
  Range: new (range: string) => { set: readonly (readonly { value: string }[])[] };
}
const semver = createRequire(import.meta.url)('semver') as Semver;

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** The lowest version of each line the range admits: '^20.19.0 || >=22.12.0' gives 20.19.0 and 22.12.0. */
function lowestOfEachLine(range: string): string[] {
  return new semver.Range(range).set.map((comparators) => {
    const low = semver.minVersion(comparators.map((c) => c.value).join(' '));
    if (!low) throw new Error(`engines.node ${range}: a part admits no version`);
    return low.version;
  });
}

describe('the Node versions coinop supports', () => {
  const supported = lowestOfEachLine(pkg.engines.node);

  it('package.json names them, and the lock says the same', () => {
    expect(supported.length).toBeGreaterThan(0);
    expect((lock.packages[''] as { engines?: { node?: string } }).engines?.node).toBe(pkg.engines.node);
  });

  it('every locked package admits each of them (npm install warns of no engine)', () => {
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const node = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
      if (!path || !node) continue;
      for (const v of supported)
        if (!semver.satisfies(v, node)) refused.push(`${path}@${p.version}: engines.node ${node} refuses ${v}`);
    }
    expect(refused).toEqual([]);
  });

  it('the check can fail: a package that wants Node 22.19 is refused', () => {
    expect(supported.some((v) => !semver.satisfies(v, '>=22.19.0'))).toBe(true);
  });
});
