// An answer made once and sent as it is, in each encoding it was compressed to: the built client's
// files (plugins/client-files.ts) and a public blog post's page and JSON (services/blog-answers.ts).
export interface PreparedAnswer {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}
