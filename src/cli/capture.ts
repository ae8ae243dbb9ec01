// A writable stream that keeps what is written to it, as text.
import { PassThrough } from 'node:stream';

export function capture(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
