// Colour only when allowed: a tiny palette over ANSI escapes (chalk decides nothing here; the IO object does).

export interface Palette {
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const plain = (s: string) => s;

export function palette(on: boolean): Palette {
  if (!on) return { dim: plain, bold: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return { dim: wrap(2, 22), bold: wrap(1, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

export function statusColour(p: Palette, status: string): string {
  return status === 'COMPLETED' ? p.green(status) : status === 'FAILED' ? p.red(status) : status === 'PENDING' ? p.yellow(status) : status;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
export const visibleLength = (s: string) => [...s.replace(ANSI, '')].length;
