print("the project renamed llava/ to mypkg/")
