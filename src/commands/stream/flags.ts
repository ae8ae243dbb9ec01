// coinop stream: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';

export const STREAM_FLAG_TABLE = defineFlags({
  channel: {
    kind: 'list',
    flag: '-c, --channel <type[:market]>',
    help: 'channel to subscribe (repeatable): market_data, market_data.top_of_book, execution_data, heartbeat',
  },
  book: {
    kind: 'switch',
    flag: '--book',
    help: 'with -o ndjson: write the maintained book of each market_data channel every --interval instead of the messages',
  },
  interval: { kind: 'text', flag: '--interval <ms>', help: 'milliseconds between books with --book (default 1000)' },
  depth: { kind: 'text', flag: '--depth <n>', help: 'levels per side in books written with --book (default all)' },
  duration: { kind: 'text', flag: '--duration <time>', help: 'stop after this long: seconds, or such as 30s, 5m, 1h' },
  count: { kind: 'text', flag: '--count <n>', help: 'stop after this many messages (books with --book)' },
});
