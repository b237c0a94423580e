CREATE TABLE `in_flight` (
	`id` text PRIMARY KEY NOT NULL,
	`bucket` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `in_flight_bucket_idx` ON `in_flight` (`bucket`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`bucket` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`bucket`, `window_start`)
);
