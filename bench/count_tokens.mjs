// Counts the tokens of each JSON string line on stdin with OpenAI's o200k_base
// encoding (gpt-4o, gpt-4.1, gpt-5 and their minis), through the npm package
// js-tiktoken (a devDependency: `npm ci`); prints one count a line.
import { getEncoding } from "js-tiktoken";
import { readFileSync } from "node:fs";

const encoding = getEncoding("o200k_base");
for (const line of readFileSync(0, "utf8").split("\n")) {
    if (line) console.log(encoding.encode(JSON.parse(line)).length);
}
