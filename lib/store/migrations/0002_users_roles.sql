CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`password_hash` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
-- The administrator always exists: it owns command-line ingests and every manual that had no owner.
INSERT INTO `users` (`id`, `email`, `name`, `role`) VALUES ('admin', 'admin', 'Administrator', 'admin');
--> statement-breakpoint
UPDATE `manuals` SET `owner_id` = 'admin' WHERE `owner_id` IS NULL;
