// Decision 0092 'Blog post rules': a slug is the title lowercased, every run of non-alphanumerics replaced by
// one hyphen, leading and trailing hyphens trimmed. Shared so the form can preview it.
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Decision 0092 'Blog post rules': comma-separated tags, trimmed, blanks dropped. */
export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}
