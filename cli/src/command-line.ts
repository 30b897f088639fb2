/**
 * How a person runs a Tagsonic command on this installation, for messages that name one: `./run <command>`
 * in a checkout, or what the installation says in `TAGSONIC_COMMAND` (the Docker image sets
 * `docker compose run --rm gateway`, since `./run` does not exist inside a container).
 */
export function commandLine(command: string, env: Record<string, string | undefined> = process.env): string {
  const prefix = env.TAGSONIC_COMMAND?.trim() || './run';
  return `${prefix} ${command}`;
}
