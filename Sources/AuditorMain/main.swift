import AuditorCLI
AuditorTool.main()
