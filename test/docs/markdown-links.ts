/**
 * The relative links of Markdown files and the headings they point to, as GitHub renders them. Hand-written
 * rather than a Markdown parser and github-slugger: the links and headings of our docs need only the rules
 * below (fenced blocks and code spans hold no links; a heading's anchor is GitHub's slug of its text), and
 * node_modules is shared by every worktree of this repository, so a new dependency costs every branch an
 * install.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The text with fenced code blocks and code spans blanked, every line kept where it was. */
export function blankCode(markdown: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return markdown
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1?\2[^\n]*$|(?![\s\S]))/gm, blank)
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/**
 * GitHub's anchor of a heading: its text lower-cased, without what is neither a letter, a mark, a digit,
 * `_`, `-` nor a space, each space a `-` (github-slugger's rule); a repeated anchor gets `-1`, `-2`, ….
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = markdown.split('\n');
  const outsideCode = blankCode(markdown).split('\n');
  for (const [index, line] of lines.entries()) {
    if (!/^ {0,3}#{1,6}\s/.test(outsideCode[index])) continue;
    // The heading's text as GitHub renders it: code spans literal, links as their text, no HTML tags.
    const text = line
      .replace(/^ {0,3}#{1,6}\s+/, '')
      .replace(/\s+#+\s*$/, '')
      .split(/(`+[^`]*`+)/)
      .map((part, at) =>
        at % 2 === 1
          ? part.replace(/^`+|`+$/g, '')
          : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, ''),
      )
      .join('');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images, and reference definitions, outside code. */
export function linksOf(markdown: string): Link[] {
  const text = blankCode(markdown);
  const links: Link[] = [];
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  for (const match of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ line: lineAt(match.index), target: match[1] });
  }
  // A definition cannot interrupt a paragraph: it follows a blank line, the start, or another definition.
  const lines = text.split('\n');
  let previousStarts = true;
  for (const [index, line] of lines.entries()) {
    const match = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?(?:\s|$)/.exec(line);
    if (match && previousStarts) links.push({ line: index + 1, target: match[1] });
    previousStarts = line.trim() === '' || (match !== null && previousStarts);
  }
  return links.sort((a, b) => a.line - b.line);
}

/** Every relative link of the files (paths from `root`) whose file or heading does not exist. */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorsOf.get(file);
    if (!found) {
      found = headingAnchors(readFileSync(file, 'utf8'));
      anchorsOf.set(file, found);
    }
    return found;
  };
  for (const file of files) {
    const full = path.join(root, file);
    for (const { line, target } of linksOf(readFileSync(full, 'utf8'))) {
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const filePart = decodeURI(hash >= 0 ? target.slice(0, hash) : target);
      const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : '';
      const linked = filePart ? path.resolve(path.dirname(full), filePart) : full;
      const where = `${file}:${line}: (${target})`;
      if (!existsSync(linked)) {
        problems.push(`${where}: no file ${path.relative(root, linked)}`);
        continue;
      }
      if (!anchor) continue;
      if (statSync(linked).isDirectory() || !linked.endsWith('.md')) {
        problems.push(`${where}: an anchor into ${path.relative(root, linked)}, which is no Markdown file`);
      } else if (!anchors(linked).has(anchor)) {
        problems.push(`${where}: no heading #${anchor} in ${path.relative(root, linked)}`);
      }
    }
  }
  return problems;
}
