// A --require preload that counts what one gateway process sends to PostgreSQL and Redis per HTTP request:
// `pg` queries by SQL text (their leading words), ioredis commands by connection and name, and the socket
// writes of each Redis connection (with auto-pipelining, several commands share one write). Written to
// $COUNT_IO_FILE (JSON) at exit; divide by `requests` for per-request figures.
//
//   BENCH_AB_NODE_OPTIONS="--require $PWD/bench/experiments/count-io.cjs" COUNT_IO_FILE=/tmp/io.json \
//     BENCH_AB_ENGINE=postgres BENCH_REDIS_URL=redis://127.0.0.1:6379/14 npx tsx bench/ab-cpu.ts <cli> <cli>
// (each gateway appends its pid to the file name). Counts start from the first request: start-up's
// migrations and connections are left out.
'use strict';
const { writeFileSync } = require('node:fs');
const http = require('node:http');

const counts = { requests: 0, pg: {}, redis: {}, redisWrites: {} };
let counting = false;
const add = (table, key) => {
  if (counting) table[key] = (table[key] ?? 0) + 1;
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'request') {
    counting = true;
    counts.requests += 1;
  }
  return emit.call(this, event, ...args);
};

try {
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    add(counts.pg, String(text ?? '?').replace(/\s+/g, ' ').slice(0, 60));
    return query.call(this, config, ...rest);
  };
} catch {
  // No pg: nothing to count.
}

try {
  const { Redis } = require('ioredis');
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (command, stream) {
    const connection = this.options.connectionName ?? '?';
    add(counts.redis, `${connection} ${command.name}`);
    const socket = this.stream;
    if (socket && !socket.__counted) {
      socket.__counted = true;
      const write = socket.write;
      socket.write = function (...args) {
        add(counts.redisWrites, connection);
        return write.apply(this, args);
      };
    }
    return sendCommand.call(this, command, stream);
  };
} catch {
  // No ioredis: nothing to count.
}

process.on('exit', () => {
  const file = process.env.COUNT_IO_FILE;
  if (file) writeFileSync(`${file}.${process.pid}`, JSON.stringify(counts, null, 1));
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.prependListener(signal, () => {
    const file = process.env.COUNT_IO_FILE;
    if (file) writeFileSync(`${file}.${process.pid}`, JSON.stringify(counts, null, 1));
  });
}
