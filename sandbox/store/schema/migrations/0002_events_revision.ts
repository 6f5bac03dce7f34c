/**
 * The revision of a company's events: a column of `companies`, drawn from a sequence.
 */
export const STATEMENTS: readonly string[] = [
  `create sequence $schema.events_revisions`,
  `alter table $schema.companies add column events_revision bigint not null default nextval('$schema.events_revisions')`,
];
