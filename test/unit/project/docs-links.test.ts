/**
 * The documents stay navigable: every relative link and image in README.md,
 * docs/ and bench/README.md names a file that exists, and every `#fragment`
 * names a heading of its target as GitHub slugs it (so a renamed heading or a
 * moved file fails here, not in a reader's browser). The README stays a front
 * door (at most 300 lines) that links every page of docs/. No network: links
 * with a scheme (https:, mailto:) are not followed.
 */
import test from 'ava';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The repo root is AVA's working directory for test processes, whether this
// file runs from test/ through tsx or as build/test/ (npm test's compiled copy).
const ROOT = process.cwd();
const README_MAX_LINES = 300;

/** What the checker reads: a document's text by its path from the root, and whether a path exists. */
interface Documents {
  readonly text: (path: string) => string | undefined;
  readonly exists: (path: string) => boolean;
}

interface Link {
  readonly from: string;
  readonly line: number;
  readonly target: string;
}

/** GitHub's slug of a heading's text (github-slugger): lower case, punctuation dropped, each space a hyphen. */
function githubSlug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** A heading as GitHub renders it to text: code spans, links and images by their text, emphasis and tags gone. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}]))/gu, '')
    .trim();
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { readonly line: number; readonly content: string }[] {
  const lines: { line: number; content: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((content, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(content)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && content.trim() === marker) fence = undefined;
    else if (fence === undefined) lines.push({ line: index + 1, content });
  });
  return lines;
}

/** The fragments a document answers to: its headings' slugs (duplicates get -1, -2, ... as on GitHub) and HTML ids. */
function anchorsOf(text: string): Set<string> {
  const occurrences = new Map<string, number>();
  const anchors = new Set<string>();
  const add = (raw: string): void => {
    const original = githubSlug(headingText(raw));
    let slug = original;
    while (occurrences.has(slug)) {
      const count = (occurrences.get(original) ?? 0) + 1;
      occurrences.set(original, count);
      slug = `${original}-${String(count)}`;
    }
    occurrences.set(slug, 0);
    anchors.add(slug);
  };
  const lines = proseLines(text);
  lines.forEach(({ line, content }, index) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(content);
    if (atx !== null) add(atx[1] ?? '');
    const previous = lines[index - 1];
    // A setext heading: a paragraph line underlined with = or - (a table row or list item is not one).
    if (/^ {0,3}(=+|-+)\s*$/.test(content) && previous !== undefined && previous.line === line - 1 && /^ {0,3}[^\s#>|*+-]/.test(previous.content)) add(previous.content);
    for (const match of content.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/gi)) if (match[1] !== undefined) anchors.add(match[1]);
  });
  return anchors;
}

/** Every link and image target of a document, outside code blocks and code spans; reference definitions included. */
function linksOf(from: string, text: string): Link[] {
  const links: Link[] = [];
  // Paragraphs, so that link text may wrap and a stray backtick cannot swallow the document.
  let paragraph: { line: number; content: string }[] = [];
  const flush = (): void => {
    if (paragraph.length === 0) return;
    const first = paragraph[0]?.line ?? 0;
    const joined = paragraph.map((entry) => entry.content).join('\n').replace(/(`+)[^`][\s\S]*?\1/g, (code) => code.replace(/[^\n]/g, ' '));
    const lineAt = (offset: number): number => first + (joined.slice(0, offset).match(/\n/g)?.length ?? 0);
    for (const match of joined.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
      links.push({ from, line: lineAt(match.index), target: (match[1] ?? '').replace(/^<|>$/g, '') });
    }
    for (const match of joined.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) links.push({ from, line: lineAt(match.index), target: match[1] ?? '' });
    paragraph = [];
  };
  for (const entry of proseLines(text)) {
    if (entry.content.trim() === '') flush();
    else paragraph.push(entry);
  }
  flush();
  return links;
}

/** Links with a scheme (https:, mailto:) or protocol-relative ones point outside the repository. */
const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** What is wrong with one relative link, or undefined when it resolves. */
function brokenReason(link: Link, documents: Documents, anchorCache: Map<string, Set<string>>): string | undefined {
  const hash = link.target.indexOf('#');
  const pathPart = hash === -1 ? link.target : link.target.slice(0, hash);
  const fragment = hash === -1 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  let path: string;
  try {
    const decoded = decodeURIComponent(pathPart.replace(/\?.*$/, ''));
    path = decoded === '' ? link.from : decoded.startsWith('/') ? decoded.slice(1) : join(dirname(link.from), decoded);
  } catch {
    return 'not a valid URL path';
  }
  path = path.replace(/\/+$/, '') || '.';
  if (path === '..' || path.startsWith('../')) return 'points outside the repository';
  if (!documents.exists(path)) return `no such file: ${path}`;
  if (fragment === undefined || fragment === '') return undefined;
  if (!path.endsWith('.md')) return /^L\d+(-L\d+)?$/.test(fragment) ? undefined : `#${fragment} on a file that is not markdown`;
  let anchors = anchorCache.get(path);
  if (anchors === undefined) {
    anchors = anchorsOf(documents.text(path) ?? '');
    anchorCache.set(path, anchors);
  }
  return anchors.has(fragment) ? undefined : `no heading #${fragment} in ${path}`;
}

/** Every relative link of the given documents that does not resolve, as `file:line target: reason`. */
function brokenLinks(paths: readonly string[], documents: Documents): { readonly checked: number; readonly broken: string[] } {
  const anchorCache = new Map<string, Set<string>>();
  const broken: string[] = [];
  let checked = 0;
  for (const from of paths) {
    for (const link of linksOf(from, documents.text(from) ?? '')) {
      if (isExternal(link.target)) continue;
      checked += 1;
      const reason = brokenReason(link, documents, anchorCache);
      if (reason !== undefined) broken.push(`${link.from}:${String(link.line)} ${link.target}: ${reason}`);
    }
  }
  return { checked, broken };
}

function markdownUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...markdownUnder(path));
    else if (entry.name.endsWith('.md')) found.push(path);
  }
  return found.sort();
}

const onDisk: Documents = {
  text: (path) => (existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile() ? readFileSync(join(ROOT, path), 'utf8') : undefined),
  exists: (path) => existsSync(join(ROOT, path)),
};

const DOCS = markdownUnder('docs');
const CHECKED = ['README.md', ...DOCS, 'bench/README.md'];

test('every relative link and #anchor in README.md, docs/ and bench/README.md resolves', (t) => {
  const { checked, broken } = brokenLinks(CHECKED, onDisk);
  t.true(checked > 100, `only ${String(checked)} relative links found: is the extraction broken?`);
  t.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
});

test(`README.md is a front door: at most ${String(README_MAX_LINES)} lines`, (t) => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
  t.true(lines <= README_MAX_LINES, `README.md has ${String(lines)} lines; move the detail to a page of docs/`);
});

test('every page of docs/ is linked from README.md', (t) => {
  t.true(DOCS.length > 0, 'docs/ holds no page');
  const linked = new Set(
    linksOf('README.md', onDisk.text('README.md') ?? '')
      .filter((link) => !isExternal(link.target))
      .map((link) => relative(ROOT, resolve(ROOT, decodeURIComponent(link.target.replace(/[?#].*$/, ''))))),
  );
  t.deepEqual(DOCS.filter((page) => !linked.has(page)), [], 'pages of docs/ that README.md does not link');
});

test("headings are slugged as GitHub does: punctuation dropped, code and links by their text, duplicates numbered", (t) => {
  const anchors = anchorsOf(
    ['# Durability (DATA_DIR)', '## The price of each part (`feature-costs.ts`, issue 20)', '## A [linked](x.md) *heading*', '## Notes', '## Notes', '## Notes-1', '```sh', '# not a heading', '```', 'Setext', '======'].join('\n'),
  );
  t.deepEqual([...anchors], ['durability-data_dir', 'the-price-of-each-part-feature-coststs-issue-20', 'a-linked-heading', 'notes', 'notes-1', 'notes-1-1', 'setext']);
});

test('a missing file, a missing heading and a link out of the repository are reported; code and external links are not links', (t) => {
  const files = new Map([
    ['README.md', '# Top\n\nSee [a](docs/a.md#one), [gone](docs/gone.md), [bad](docs/a.md#two),\n[wrapped\ntext](#top), ![img](docs/a.md) and [out](../x.md).\n\n`[code](nowhere.md)` [web](https://example.com/x.md)\n\n```\n[fenced](nowhere.md)\n```\n'],
    ['docs/a.md', '# One\n'],
  ]);
  const { checked, broken } = brokenLinks(['README.md'], { text: (path) => files.get(path), exists: (path) => files.has(path) || path === 'docs' });
  t.is(checked, 6);
  t.deepEqual(broken, [
    'README.md:3 docs/gone.md: no such file: docs/gone.md',
    'README.md:3 docs/a.md#two: no heading #two in docs/a.md',
    'README.md:5 ../x.md: points outside the repository',
  ]);
});
