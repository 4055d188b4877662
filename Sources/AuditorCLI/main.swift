AuditorCommand.main()
