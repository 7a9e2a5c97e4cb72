// Opens (and so migrates) a database in its own process: `open-database.fixture.ts <data_dir> [database_url]`.
import { createDatabase } from '../../src/db/index.js';

const handle = await createDatabase({ dataDir: process.argv[2], databaseUrl: process.argv[3] || undefined });
await handle.close();
console.log('opened');
