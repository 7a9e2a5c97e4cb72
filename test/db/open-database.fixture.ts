// Opens (and so migrates) a database in its own process: `open-database.fixture.ts <data_dir> [database_url]`.
import { createDatabase } from '../../src/db/index.js';
import { DataDirInUseError } from '../../src/db/data-dir-lock.js';

try {
  const handle = await createDatabase({ dataDir: process.argv[2], databaseUrl: process.argv[3] || undefined });
  await handle.close();
  console.log('opened');
} catch (error) {
  // SQLite: the other process holds the data folder (one owner at a time).
  if (!(error instanceof DataDirInUseError)) throw error;
  console.log('in use');
}
