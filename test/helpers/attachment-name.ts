// The file name a browser would save an answer under (RFC 6266/8187, as the content-disposition
// package reads it), or undefined when the answer is not an attachment. Tests compare names, not quoting.
import { parse } from 'content-disposition';

export function attachmentName(res: { headers: { get(name: string): string | null } }): string | undefined {
  const header = res.headers.get('content-disposition');
  if (!header) return undefined;
  const parsed = parse(header);
  return parsed.type === 'attachment' ? parsed.parameters.filename : undefined;
}
