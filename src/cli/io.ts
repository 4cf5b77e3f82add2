/** Reads all of standard input (used by --password-stdin, so a password never lands in argv or the environment). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new Error('--password-stdin expects the password on standard input (pipe it in)');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
