// Probes for CI, run with Node so no database or Redis client package is needed.
//   node .ci/probe.js mysql <url>             exit 0 when the server answers
//   node .ci/probe.js mysql-sql <url> <sql>   run one statement
//   node .ci/probe.js redis <url>             exit 0 when PING answers PONG
//   node .ci/probe.js redis-clean <url> <prefix>   delete every key under <prefix>:
const [, , what, url, arg] = process.argv;
const timeout = setTimeout(() => process.exit(3), 10000);

async function main() {
  if (what === 'mysql' || what === 'mysql-sql') {
    const mysql = require('mysql2/promise');
    const conn = await mysql.createConnection({ uri: url, connectTimeout: 3000 });
    await conn.query(what === 'mysql' ? 'SELECT 1' : arg);
    await conn.end();
    return;
  }
  const Redis = require(require.resolve('ioredis', { paths: [require.resolve('bull')] }));
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {}); // a refused connection is the answer, not noise
  await redis.connect();
  try {
    if (what === 'redis') {
      if ((await redis.ping()) !== 'PONG') throw new Error('no PONG');
    } else if (what === 'redis-clean') {
      if (!arg) throw new Error('prefix required');
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${arg}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) deleted += await redis.del(...keys);
      } while (cursor !== '0');
      console.log(`deleted ${deleted} Redis key(s) under ${arg}:`);
    } else {
      throw new Error(`unknown probe ${what}`);
    }
  } finally {
    redis.disconnect();
  }
}

main().then(
  () => {
    clearTimeout(timeout);
    process.exit(0);
  },
  (err) => {
    if (process.env.PROBE_VERBOSE) console.error(String(err && err.message));
    process.exit(1);
  },
);
