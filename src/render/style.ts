// Colour only when allowed: a small palette over chalk. Whether colour is on is the caller's decision (the IO
// object's NO_COLOR / FORCE_COLOR / terminal rule), never chalk's own detection.
import { Chalk, type ChalkInstance } from 'chalk';

export interface Palette {
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

/** Level 1 (the 16 basic colours) is all the palette uses; level 0 writes no escapes. */
const COLOUR = new Chalk({ level: 1 });
const PLAIN = new Chalk({ level: 0 });

function paletteOf(instance: ChalkInstance): Palette {
  return {
    dim: instance.dim,
    bold: instance.bold,
    red: instance.red,
    green: instance.green,
    yellow: instance.yellow,
    cyan: instance.cyan,
  };
}

const ON = paletteOf(COLOUR);
const OFF = paletteOf(PLAIN);

export function palette(on: boolean): Palette {
  return on ? ON : OFF;
}

export function statusColour(palette: Palette, status: string): string {
  return status === 'COMPLETED'
    ? palette.green(status)
    : status === 'FAILED'
      ? palette.red(status)
      : status === 'PENDING'
        ? palette.yellow(status)
        : status;
}

/** Colour escapes (SGR), which take no room on the screen. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR escape starts with ESC
const SGR = /\u001b\[[0-9;]*m/g;
export const visibleLength = (s: string) => [...s.replace(SGR, '')].length;
