CREATE TABLE `workers` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `manuals` ADD `worker_id` text;--> statement-breakpoint
ALTER TABLE `manuals` ADD `lease_until` integer;--> statement-breakpoint
CREATE INDEX `manuals_status_idx` ON `manuals` (`status`,`created_at`);