// Finding a profile's policy file: only a name that is certainly not there means "no policy". A dangling symbolic
// link, a folder that cannot be looked into, a policies "folder" that is a file, a policy "file" that is a folder:
// each is a problem (and every command that moves money refuses on it), never "no rules".
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LookFs, policyLocation } from '../../src/policy/location.js';

describe('policyLocation', () => {
  let config: string;
  let dir: string;
  beforeEach(() => {
    config = mkdtempSync(join(tmpdir(), 'coinop-location-'));
    dir = join(config, 'policies');
  });
  afterEach(() => rmSync(config, { recursive: true, force: true }));

  it('no folder, or a folder without the file: certainly no policy', () => {
    expect(policyLocation(config, 't1')).toEqual({ path: join(dir, 't1.yaml'), exists: false, others: [] });
    mkdirSync(dir);
    expect(policyLocation(config, 't1')).toEqual({ path: join(dir, 't1.yaml'), exists: false, others: [] });
  });

  it('a file, or a symbolic link to one: found', () => {
    mkdirSync(dir);
    writeFileSync(join(config, 'team.yaml'), 'assets: [BTC]\n');
    symlinkSync(join(config, 'team.yaml'), join(dir, 't1.yml'));
    expect(policyLocation(config, 't1')).toEqual({ path: join(dir, 't1.yml'), exists: true, others: [] });
  });

  it('a symbolic link whose target is gone is a problem, not "no policy"', () => {
    mkdirSync(dir);
    symlinkSync(join(config, 'gone.yaml'), join(dir, 't1.yaml'));
    expect(policyLocation(config, 't1')).toEqual({
      path: join(dir, 't1.yaml'),
      exists: true,
      others: [],
      problem: `${join(dir, 't1.yaml')} is a symbolic link to ${join(config, 'gone.yaml')}, which cannot be followed (ENOENT)`,
    });
  });

  it('a policies folder that is a dangling link or a file, and a policy that is a folder, are problems', () => {
    symlinkSync(join(config, 'elsewhere'), dir);
    expect(policyLocation(config, 't1').problem).toBe(
      `${dir} is a symbolic link to ${join(config, 'elsewhere')}, which cannot be followed (ENOENT)`,
    );
    rmSync(dir);
    writeFileSync(dir, '');
    expect(policyLocation(config, 't1').problem).toBe(`${dir} is a file, not a folder`);
    rmSync(dir);
    mkdirSync(join(dir, 't1.json'), { recursive: true });
    expect(policyLocation(config, 't1')).toMatchObject({
      exists: true,
      problem: `${join(dir, 't1.json')} is a folder, not a file`,
    });
  });

  it('a folder that cannot be looked into (EACCES: root never sees one, so the calls are stood in for)', () => {
    mkdirSync(dir);
    const denied = (path: string) => Object.assign(new Error(`EACCES: ${path}`), { code: 'EACCES' });
    const fs: LookFs = {
      lstat: (file) => {
        if (file === dir) return statSync(dir);
        throw denied(file);
      },
      stat: (file) => {
        throw denied(file);
      },
      readlink: (file) => {
        throw denied(file);
      },
    };
    expect(policyLocation(config, 't1', fs)).toEqual({
      path: join(dir, 't1.yaml'),
      exists: true,
      others: [],
      problem: `${join(dir, 't1.yaml')} cannot be looked at (EACCES), so whether there is a policy is not known`,
    });
  });
});
