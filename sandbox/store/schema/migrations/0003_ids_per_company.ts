/**
 * Each company numbers its own records, on counters in its row (the last id it gave): the ids of
 * one company show nothing of another's writes, and an insert touches one company's rows only.
 */
export const STATEMENTS: readonly string[] = [
  `alter table $schema.companies
      add column last_venue_id bigint not null default 0,
      add column last_event_id bigint not null default 0,
      add column last_payroll_group_id bigint not null default 0,
      add column last_file_id bigint not null default 0,
      add column last_worker_document_id bigint not null default 0,
      add column last_worker_credential_id bigint not null default 0`,
  // the records made so far keep their ids, and each company's next ones follow its own highest
  `update $schema.companies as c set
      last_venue_id = coalesce((select max(venue_id) from $schema.venues as r where r.company_id = c.company_id), 0),
      last_event_id = coalesce((select max(id) from $schema.events as r where r.company_id = c.company_id), 0),
      last_payroll_group_id =
        coalesce((select max(id) from $schema.payroll_groups as r where r.company_id = c.company_id), 0),
      last_file_id = coalesce((select max(file_id) from $schema.stored_files as r where r.company_id = c.company_id), 0),
      last_worker_document_id =
        coalesce((select max(id) from $schema.worker_documents as r where r.company_id = c.company_id), 0),
      last_worker_credential_id =
        coalesce((select max(id) from $schema.worker_credentials as r where r.company_id = c.company_id), 0)`,
  // nothing else numbers records: an insert names its id, taken from its company's counter
  `alter table $schema.venues alter column venue_id drop identity`,
  `alter table $schema.events alter column id drop identity`,
  `alter table $schema.payroll_groups alter column id drop identity`,
  `alter table $schema.stored_files alter column file_id drop identity`,
  `alter table $schema.worker_documents alter column id drop identity`,
  `alter table $schema.worker_credentials alter column id drop identity`,
];
