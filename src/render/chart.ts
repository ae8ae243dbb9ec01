// A line chart of a series drawn with Unicode braille dots (2×4 per cell), with exact labels for the extremes.
// The positions are approximate by nature; the labels are the strings the service sent. The chart takes the width it
// is given whatever the number of points: the points are spread over the dots of that width and joined by straight
// lines (a few points are interpolated across it, many share a column and draw its range).

const DOTS = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];

export interface ChartPoint {
  /** Exact value as sent ("64021.37"). */
  label: string;
  value: number;
  time: string;
}

export function lineChart(points: ChartPoint[], width: number, height = 10): string {
  if (points.length < 2) return '';
  let lo = 0;
  let hi = 0;
  for (let i = 1; i < points.length; i++) {
    if (points[i].value < points[lo].value) lo = i;
    if (points[i].value > points[hi].value) hi = i;
  }
  const min = points[lo].value;
  const max = points[hi].value;
  const axis = Math.max(points[lo].label.length, points[hi].label.length);
  const cols = Math.max(10, width - axis - 3);
  const px = cols * 2;
  const py = height * 4;
  const cells = Array.from({ length: height }, () => new Array<number>(cols).fill(0));
  const set = (column: number, dotRow: number) => {
    const row = py - 1 - dotRow;
    cells[Math.floor(row / 4)][Math.floor(column / 2)] |= DOTS[row % 4][column % 2];
  };
  const xy = (i: number): [number, number] => [
    Math.round((i * (px - 1)) / (points.length - 1)),
    max === min ? Math.floor(py / 2) : Math.round(((points[i].value - min) / (max - min)) * (py - 1)),
  ];
  let [x0, y0] = xy(0);
  set(x0, y0);
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = xy(i);
    // Bresenham between consecutive points, so the line has no gaps.
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    let x = x0;
    let y = y0;
    for (;;) {
      set(x, y);
      if (x === x1 && y === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y += sy;
      }
    }
    [x0, y0] = [x1, y1];
  }
  const lines = cells.map((row, rowIndex) => {
    const label = rowIndex === 0 ? points[hi].label : rowIndex === height - 1 ? points[lo].label : '';
    return `${label.padStart(axis)} ┤${row.map((b) => String.fromCharCode(0x2800 + b)).join('')}`;
  });
  const first = points[0].time;
  const last = points[points.length - 1].time;
  const gap = Math.max(1, cols + 1 - first.length - last.length);
  lines.push(`${' '.repeat(axis)} └${'─'.repeat(cols)}`);
  lines.push(`${' '.repeat(axis + 2)}${first}${' '.repeat(gap)}${last}`.trimEnd());
  return `${lines.join('\n')}\n`;
}
