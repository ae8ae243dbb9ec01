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

/** Without colour every style writes its text as it is (what chalk at level 0 does). */
const plain = (s: string) => s;
const OFF: Palette = { dim: plain, bold: plain, red: plain, green: plain, yellow: plain, cyan: plain };

/**
 * With colour, chalk at level 1 (the 16 basic colours are all the palette uses), made on first use: the built CLI
 * evaluates chalk only then (scripts/build.mjs, lazy-packages), so output without colour never loads it.
 */
let on: Palette | undefined;
function colourPalette(): Palette {
  if (!on) {
    const instance: ChalkInstance = new Chalk({ level: 1 });
    on = {
      dim: instance.dim,
      bold: instance.bold,
      red: instance.red,
      green: instance.green,
      yellow: instance.yellow,
      cyan: instance.cyan,
    };
  }
  return on;
}

export function palette(colour: boolean): Palette {
  return colour ? colourPalette() : OFF;
}

export function statusColour(palette: Palette, status: string): string {
  // A conversion's statuses too: SETTLED as COMPLETED, CREATED as PENDING.
  return status === 'COMPLETED' || status === 'SETTLED'
    ? palette.green(status)
    : status === 'FAILED'
      ? palette.red(status)
      : status === 'PENDING' || status === 'CREATED'
        ? palette.yellow(status)
        : status;
}

/** Colour escapes (SGR), which take no room on the screen. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR escape starts with ESC
const SGR = /\u001b\[[0-9;]*m/g;
export const visibleLength = (s: string) => [...s.replace(SGR, '')].length;
