ALTER TABLE `manuals` ADD `index_fingerprint` text;--> statement-breakpoint
ALTER TABLE `manuals` ADD `reembed_stage` text;