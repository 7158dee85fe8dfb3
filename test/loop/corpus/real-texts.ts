/**
 * Real texts for the stream cut: runaways users reported in public issue threads (each as the thread shows it, then
 * carried on the way the thread says it went on, to the output cap; where the thread shows a form rather than text to
 * copy, a text of our own written to that form, marked so), and long real texts that repeat legitimately. Each names
 * its source; `real/README.md` lists them. The runaways must be cut soon; the texts must stream whole.
 */
import { readFileSync } from 'node:fs'
import type { ResponseCase } from './responses.ts'

/** A real text and where it comes from. */
export interface RealCase extends ResponseCase {
  readonly source: string
  /** Text of the request the response quotes from (a tool's output, the person's words), when it quotes. */
  readonly request?: string
}

const read = (name: string): string => readFileSync(new URL(`real/${name}`, import.meta.url), 'utf8')
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
/** The `i`th of `items` in an order with no cycle (a hash's finalizer), as a model drifting between them picks them. */
function drifting<T>(items: readonly T[], i: number): T {
  let x = Math.imul(i + 0x9e3779b9, 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return items[((x ^ (x >>> 16)) >>> 0) % items.length]!
}

/**
 * A runaway: `before`, then the `i`th copy of its repetition for `times` copies (most stop at the output cap). `unit`
 * is the unit a notice should quote, as the watch folds it, when it is checked; `within`, for a form the copies rule
 * does not bound, the most characters of the repetition that stream before the cut.
 */
function runaway(
  name: string, source: string, part: ResponseCase['part'], before: string, copy: (i: number) => string, times: number, unit?: string, within?: number,
): RealCase {
  const text = before + range(times).map(copy).join('')
  return { name, source, kind: 'loop', part, text, loop: { from: before.length, unit: unit ?? copy(times - 1), ...(within === undefined ? {} : { within }) } }
}

function text(name: string, source: string, part: ResponseCase['part'], body: string, request?: string): RealCase {
  return { name, source, kind: 'trap', part, text: body, ...(request === undefined ? {} : { request }) }
}

export const RUNAWAYS: readonly RealCase[] = [
  // A letter dropped every ~85 copies, on to the cap.
  runaway('ISIS- with a letter dropped now and then', 'https://github.com/ollama/ollama/issues/2805', 'text', '',
    i => i % 85 === 23 ? 'SIS-' : i % 85 === 60 ? 'IIS-' : 'ISIS-', 6000, 'ISIS-'),
  runaway('a paragraph in Chinese, on to the cap', 'https://github.com/ollama/ollama/issues/3354', 'text',
    '大连是一个潇湘江岸的城市，位于中国北部地区。该城市有近四百年的历史，从古至今都是一个重要的经济和文化交流中心。大连是一座飞速发展的城市，在1950年以来，城市生活水平提高了十分之八，各种财富项目都在进行，并且已经成为国内外投资中心。\n\n',
    () => '大连是一个综合性的城市，其中包括商业、科技、文化、教育、医疗、服务等多方面。在这些方面，大连已经成为国内外重要的产业和财富集中点，并且是一个潇湘江岸的重要经济基地。\n\n', 200),
  runaway('a boxed answer in reasoning, to 32,768 tokens', 'https://github.com/vllm-project/vllm-ascend/issues/15166', 'reasoning',
    'So the total is 460 dollars. ', () => 'I\'ll use \\boxed{460}. ', 4000),
  runaway('"Wait, but in the code" and its answer, over and over', 'https://github.com/vllm-project/vllm/issues/25977', 'reasoning', '',
    () => 'Wait, but in the code, the answer is 5.0. So the final answer should be $\\boxed{5}$.\n\nYes, that\'s correct. The answer is $\\boxed{5}$.\n\n', 400),
  runaway('a think-tag close and one sentence, 251 times and on', 'https://github.com/1CatAI/1Cat-vLLM/issues/569', 'text', '',
    () => 'I need to investigate this. Let\n me just paste the message.\n</think>\n', 600),
  runaway('"Let me" between brackets, the spacing drifting', 'https://github.com/ggml-org/llama.cpp/issues/6762', 'text',
    'Bob: I can help you with that! Here\'s a simple example code snippet that creates an animation showing the graph of y = 2x + 1:\n\n'
    + 'This code creates an animation showing the graph of y = 2x + 1. You can adjust the x and y ranges to zoom in or out of the graph. You can also add more graph labels to highlight specific points on the graph. Let me know if you have any questions or if you\'d like to customize  This  Code       Let me know if you\'d like to   Let me know if you\'d like to   Let me Bob   Let me render  Let me    Let me   '
    + '(   Let me   )  Let me   '.repeat(3) + '(   Let me\n  )  Let me   ' + '(   Let me   )  Let me   '.repeat(2),
    () => '(   Let me)  Let me   ', 3000),
  runaway('a chat template\'s turn with its counter going up', 'https://github.com/ggml-org/llama.cpp/issues/19585', 'text', '',
    i => `tell me something about you？<|im_end|>\n<|im_start|>assistant${i + 1}\n`, 2000, 'tell me something about you？<|im_end|>\n<|im_start|>assistant0\n'),
  runaway('slashes without end after a tool call', 'https://github.com/ggml-org/llama.cpp/issues/27876', 'text', 'Now I will read the config file. ', () => '/', 30_000),
  runaway('a reply that changed once, then repeated', 'https://github.com/mudler/LocalAI/issues/969', 'text',
    'I am doing well, thank-you. How are you?\n'.repeat(3), () => 'I am doing well, thank-youso much. How are you?\n', 800),
  runaway('"Let me check the current task" in an agent', 'https://github.com/cline/cline/issues/5722', 'text',
    'Now I have good understanding of project. Let me work on the task. I need to work on the tasks in the development plan. Let me check what the current task is:\n\nLet me check the current task in the development plan:\n\nLet me check what tasks are in the development plan:\n\nLet me check the development plan:\n\nLet me check the current task:\n\n',
    () => 'Let me check the current task in the development plan:\n\n', 1000),
  runaway('two sentences of a plan in an editor\'s agent panel', 'https://github.com/zed-industries/zed/issues/61649', 'text', '',
    () => 'Now let me create the base feature class. This needs to be simple but functional - receive data, process it, send results. ', 500),
  runaway('"Yes," on every line', 'https://github.com/Aider-AI/aider/issues/1841', 'text', 'Yes\n', () => 'Yes,\n', 5000),
  runaway('a made-up exchange between the model and a user', 'https://github.com/Aider-AI/aider/issues/864', 'text',
    'USER: Okay, thanks!\n\n',
    () => 'A: You\'re welcome! I\'m glad I could help. Please feel free to reach out anytime if you need further assistance. I\'m here to support you.\n\nUSER: Sounds good, thanks!\n\nA: You\'re welcome! I\'m happy I could be of assistance. Please don\'t hesitate to contact me again if you need any more help in the future. I\'m always glad to lend a hand.\n\nUSER: Okay, thanks!\n\n', 60),
  runaway('"ny" without end', 'https://github.com/google-gemini/gemini-cli/issues/5813', 'text', '', () => 'ny', 20_000),
  runaway('"The the the" in reasoning, 79,222 characters', 'https://github.com/PrimeIntellect-ai/prime-agent/pull/1099', 'reasoning', 'The ', () => 'the ', 19_800),
  runaway('a birthday wish and its emoji, line after line', 'https://github.com/ollama/ollama/issues/16892', 'text',
    'Happy birthday to you!🎂\nI hope you have a wonderful day and enjoy your birthday. Have a great time with friends and family. Happy birthday to you!🎂\nI wish you a happy birthday. May your life be filled with joy, laughter, and success. Have a great day and enjoy your \nbirthday. ',
    () => 'Happy birthday to you!🎂\n', 2000),
  runaway('"not called" in reasoning, ~2,300 tokens', 'https://github.com/anthropics/claude-code/issues/71945', 'reasoning',
    'The store-level guard is wired through the controller hook, and _syncGen matches on the first render, so the callback is ', () => 'not called ', 800),
  runaway('the same token, `<s>`, over and over', 'https://github.com/ggml-org/llama.cpp/issues/7421', 'text', 'She smiled and said', () => '<s>', 8000),
  runaway('"Let me check" repeated at a large context', 'https://github.com/ollama/ollama/issues/16179', 'reasoning', 'The file is large. ', () => 'Let me check. ', 2000),
  // Written to the forms the threads show. A diagram's empty row inside a code fence, on to the cap (some 250,000
  // characters): data to the old rule, so never cut. 100 copies count, and a look comes every 64 of them.
  runaway('a diagram row in a code fence, to the cap (written to the thread\'s form)', 'https://github.com/QwenLM/Qwen3-VL/issues/1611', 'text',
    '# Request path\n\nA request passes these stages:\n\n```\nBrowser\n  |\n  v\nLoad balancer -> Gateway -> Auth\n  |                        |\n  |                        v\n  |                     Sessions\n  |\n  |------------------|\n  | Handlers         |\n',
    () => '  |                  |\n', 11_000, '  |                  |\n', 164 * 22),
  // One line break a token after the answer, until `max_tokens` (15,000): folded away, white space never repeated.
  runaway('line breaks, one a token, to max_tokens (written to the thread\'s form)', 'https://github.com/vllm-project/vllm/issues/53717', 'text',
    'Summary of the discharge note:\n\n- Admitted with community-acquired pneumonia, treated with intravenous antibiotics, then oral.\n- No fever for the last 48 hours; oxygen saturation 96% on room air.\n- Follow-up chest X-ray in six weeks, and with the GP in one.\n',
    i => (i % 9 === 8 ? '\n\n' : '\n'), 15_000, '\n', 900),
  // Short sentences that change a word each time, drawn again and again from a few: no two copies back to back.
  runaway('sentences that change a word, cycling (written to the thread\'s form)', 'https://github.com/can1357/oh-my-pi/issues/8701', 'text',
    'Plan: read the five workflow files, change the parser to accept the new step type, then update its tests.\n\n',
    i => `${drifting(['I\'ll do it.', 'I\'ll implement it.', 'I\'ll start.', 'I\'ll begin coding.', 'I\'ll write the code.', 'I\'ll do it now.', 'I\'ll start now.', 'Let me implement it.'], i)} `, 3000,
    'Let me implement it. I\'ll implement it. I\'ll do it now. I\'ll do it. I\'ll begin coding. I\'ll write the code. I\'ll start now. I\'ll start. ', 4200),
  // A list whose lines keep their form and change their noun, the nouns coming back in no order.
  runaway('list lines that change their noun, cycling (written to the thread\'s form)', 'https://github.com/google-gemini/gemini-cli/issues/13796', 'text',
    'The segfault comes from the generator. Next steps:\n',
    i => `  (${drifting(['StatementGenerator.cpp', 'Safe leaf generation', 'Done', 'Action', 'Tool', 'Replace', 'Fix the segfault', 'Rebuild'], i)}).\n`, 4000,
    '(StatementGenerator.cpp).\n(Fix the segfault).\n(Rebuild).\n(Safe leaf generation).\n(Replace).\n(Action).\n', 4200),
]

/** A base64 data URI of a 64 × 64 BMP filled with one grey: a run of one pixel value, as an image holds. */
function greyBitmap(): string {
  const width = 64
  const pixels = width * width * 3
  const header = Buffer.alloc(54)
  header.write('BM', 0)
  header.writeUInt32LE(54 + pixels, 2)
  header.writeUInt32LE(54, 10)
  header.writeUInt32LE(40, 14)
  header.writeInt32LE(width, 18)
  header.writeInt32LE(width, 22)
  header.writeUInt16LE(1, 26)
  header.writeUInt16LE(24, 28)
  header.writeUInt32LE(pixels, 34)
  const body = Buffer.concat([header, Buffer.alloc(pixels, 0x80)]).toString('base64')
  return `Here is the placeholder image inlined as a data URI:\n\n\`\`\`html\n<img alt="placeholder" src="data:image/bmp;base64,${body}">\n\`\`\`\n\nReplace it with the real logo once the design is final.\n`
}

/** Sensor readings as a data logger writes them: most channels idle, so most fields are 0. */
function idleReadings(): string {
  const header = 'timestamp,' + range(48).map(i => `ch${i + 1}`).join(',')
  const rows = range(60).map(i => `2024-03-0${1 + (i % 9)}T0${i % 10}:00:00Z,${range(48).map(c => (c === 3 ? (12.5 + i / 10).toFixed(2) : c === 17 ? String(i % 7) : '0')).join(',')}`)
  return `The export has 48 channels; only channels 4 and 18 moved during the run:\n\n\`\`\`csv\n${header}\n${rows.join('\n')}\n\`\`\`\n`
}

/** A log a tool returned with the same line many times in a row, and the response quoting it. */
const POLLED = 'The deploy command printed:\n\n' + 'Waiting for rollout to finish: 0 of 3 updated replicas are available...\n'.repeat(140) + 'deployment "web" successfully rolled out\n'

export const TEXTS: readonly RealCase[] = [
  text('a Markdown table whose empty cells are padded with spaces', 'README.md of the public Fireside Library repository (found through a code search)', 'text',
    '| #  | Fireside                              | Phase         | Status     | Notes                                  |\n| :- | :------------------------------------ | :------------ | :--------- | :------------------------------------- |\n'
    + ['Overview of the Baha\'i Faith', 'Baha\'i Spiritual Principles', 'Baha\'i Social Teachings', 'Developing a Relationship with God', 'The Bab and Baha\'u\'llah', 'The Centers of the Covenant', 'Making Sense of a Turbulent World', 'Prayer', 'The Baha\'i Faith and Christianity', 'The Baha\'i Administrative Order', 'Suffering and Justice', 'Non-Involvement in Partisan Politics', 'Spiritual Development']
      .map((title, i) => `| ${String(i + 1).padStart(2, '0')} | ${title.padEnd(37)} | investigation | beta       |                                        |\n`).join('').repeat(4)),
  text('a licence banner of stars', 'pixel565.h of the KISS Institute CBC firmware (GPL banner)', 'text',
    '/**************************************************************************\n *  Copyright 2008,2009 KISS Institute for Practical Robotics             *\n *                                                                        *\n *  This file is part of CBC Firmware.                                    *\n *                                                                        *\n *  CBC Firmware is free software: you can redistribute it and/or modify  *\n *  it under the terms of the GNU General Public License as published by  *\n *  the Free Software Foundation, either version 2 of the License, or     *\n *  (at your option) any later version.                                   *\n *                                                                        *\n *  CBC Firmware is distributed in the hope that it will be useful,       *\n *  but WITHOUT ANY WARRANTY; without even the implied warranty of        *\n *  MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the         *\n *  GNU General Public License for more details.                          *\n *                                                                        *\n *  You should have received a copy of the GNU General Public License     *\n *  along with this copy of CBC Firmware.  Check the LICENSE file         *\n *  in the project root.  If not, see <http://www.gnu.org/licenses/>.     *\n **************************************************************************/\n'),
  text('section rules of `=` and `*` through a long file', 'the rule style of dng_pthread.h (Adobe DNG SDK) and of Python section banners', 'text',
    range(40).map(i => `/*****************************************************************************/\n\n// Section ${i + 1}\n\n# ${'='.repeat(76)}\n# Part ${i + 1}\n# ${'='.repeat(76)}\n`).join('')),
  text('a long run of one character in an ASCII rule', 'a separator line as terminal tools print them', 'text', `Results\n${'='.repeat(3000)}\nall 212 tests passed\n`),
  text('base64 of an image with a run of one pixel value', 'a 64 × 64 BMP of one grey, as a data URI', 'text', greyBitmap()),
  text('CSV rows with many equal fields', 'a data logger export: 48 channels, most idle', 'text', idleReadings()),
  text('a changelog', 'https://github.com/acornjs/acorn/blob/master/acorn/CHANGELOG.md', 'text', read('acorn-changelog.md')),
  text('a lockfile excerpt of near-identical objects', 'this repository\'s package-lock.json (the esbuild platform packages)', 'text', read('package-lock-esbuild.json.txt')),
  text('a YAML list of near-identical objects', 'a Kubernetes Service\'s port list, as such manifests are written', 'text',
    'ports:\n' + range(120).map(i => `  - name: metrics-${i}\n    port: ${9100 + i}\n    targetPort: ${9100 + i}\n    protocol: TCP\n`).join('')),
  text('a quoted log with long runs of identical lines', 'a rollout log, quoted from the tool output it came in', 'text', `The rollout waited a while before it finished:\n\n\`\`\`\n${POLLED}\`\`\`\n\nSo the deploy did succeed; it only took 140 polls.\n`, POLLED),
  text('a log quoted outside a code block', 'the same rollout log, quoted as plain text', 'reasoning', `The tool said:\n${POLLED}So it finished.`, POLLED),
  text('a numbered list of similar steps', 'an upgrade checklist of the kind a person asks for', 'text',
    ['api', 'auth', 'billing', 'cart', 'catalog', 'checkout', 'db', 'email', 'events', 'gateway', 'inventory', 'notifications', 'orders', 'payments', 'profile', 'search', 'sessions', 'shipping', 'storage', 'users', 'web', 'worker', 'admin', 'reports']
      .map((service, i) => `${i + 1}. Bump the ${service} service's base image to node:22-alpine, rebuild it with \`make ${service}\`, and check its health endpoint before the next.\n`).join('')),
  text('a song\'s refrain, asked for', '"Row, Row, Row Your Boat" (traditional), sung as a round four times', 'text',
    'Here it is, four times round as you asked:\n\n' + 'Row, row, row your boat,\nGently down the stream.\nMerrily, merrily, merrily, merrily,\nLife is but a dream.\n\n'.repeat(4)),
  text('99 rows of the same template in a code block', 'a migration test fixture of the kind a person asks for', 'text',
    '```sql\n' + range(99).map(i => `INSERT INTO accounts (id, name, balance) VALUES (${i + 1}, 'account-${i + 1}', 0);`).join('\n') + '\n```\n'),
]
