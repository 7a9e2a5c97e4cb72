import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../dist/ui', import.meta.url));

/** Writes a .gz beside every asset (served by @fastify/static's preCompressed) and prints the first page's gzip size. */
function gzipAssets(): Plugin {
  return {
    name: 'gzip-assets',
    apply: 'build',
    closeBundle() {
      const assets = join(outDir, 'assets');
      let total = 0;
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const gzipped = gzipSync(readFileSync(join(assets, name)), { level: 9 });
        writeFileSync(join(assets, `${name}.gz`), gzipped);
        total += gzipped.length;
      }
      console.log(`first page (every asset), gzip: ${(total / 1024).toFixed(1)} KiB`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  plugins: [react(), gzipAssets()],
  build: { outDir, emptyOutDir: true, assetsDir: 'assets', sourcemap: false, reportCompressedSize: true },
  logLevel: 'warn',
});
