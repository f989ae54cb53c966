// Counts tokens of the texts toon.ToonSize wrote (--out DIR) with a real BPE tokenizer:
// gpt-tokenizer's o200k_base (GPT-4o / GPT-5 family) and cl100k_base (GPT-4).
//   npm install --no-audit --no-fund --prefix /tmp/tok gpt-tokenizer@4.0.0
//   NODE_PATH=/tmp/tok/node_modules node benchmarks/toon-tokens.mjs DIR
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// NODE_PATH (above) is where require finds gpt-tokenizer.
const require = createRequire(import.meta.url);
const o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
const cl100k = require('gpt-tokenizer/cjs/encoding/cl100k_base');

const dir = process.argv[2];
console.log('| file | chars | o200k_base tokens | cl100k_base tokens |');
console.log('|---|---:|---:|---:|');
for (const file of readdirSync(dir).sort()) {
  const text = readFileSync(join(dir, file), 'utf8');
  console.log(`| ${file} | ${text.length} | ${o200k.encode(text).length} | ${cl100k.encode(text).length} |`);
}
