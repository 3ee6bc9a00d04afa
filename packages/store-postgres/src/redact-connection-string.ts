/**
 * A connection string fit for messages and logs: the password replaced by `***`. Text that is not a URL
 * (a `key=value` string) is reduced to its host and database, since a password could be anywhere in it.
 */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password !== '') url.password = '***';
    for (const key of [...url.searchParams.keys()]) {
      if (/password|sslkey|secret/i.test(key)) url.searchParams.set(key, '***');
    }
    return url.toString();
  } catch {
    const kept = connectionString.match(/\b(host|port|dbname|user)=\S+/g) ?? [];
    return kept.length === 0 ? 'the database' : kept.join(' ');
  }
}
