// What the local service takes from node:crypto, loaded on first use: a request with a token it already issued (the
// embedded default's everyday case) needs none of it, and loading node:crypto was about 1.5 ms of every start.
import type * as NodeCrypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let loaded: typeof NodeCrypto | undefined;
const crypto = () => (loaded ??= require('node:crypto') as typeof NodeCrypto);

export const randomUUID = (): string => crypto().randomUUID();
export const randomBytes = (size: number): Buffer => crypto().randomBytes(size);
export const createHash = (algorithm: string): NodeCrypto.Hash => crypto().createHash(algorithm);
export const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean =>
  crypto().timingSafeEqual(a, b);
