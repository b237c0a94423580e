CREATE TABLE `units` (
	`id` text PRIMARY KEY NOT NULL,
	`manual_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`page` integer NOT NULL,
	`page_end` integer NOT NULL,
	`heading` text DEFAULT '' NOT NULL,
	`text` text NOT NULL,
	`ocr` integer DEFAULT false NOT NULL,
	`regions` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`manual_id`) REFERENCES `manuals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `units_manual_page_idx` ON `units` (`manual_id`,`page`);