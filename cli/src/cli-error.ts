/** A usage or input error the cli prints without a stack trace (exit code 2). */
export class CliError extends Error {
  override name = 'CliError';
}
